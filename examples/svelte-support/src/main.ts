import { mount } from 'svelte'
import '../../../renderers/react/styles.css'
import '../../react-support/src/page.css'
import App from './App.svelte'

const target = document.getElementById('root')
if (target === null) throw new Error('index.html has no #root element')
mount(App, { target })
